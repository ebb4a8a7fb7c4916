"""The reading layer: how both wings read text. One tokenizer and stemmer, one sentence splitter
for notes and sources, one reader of aims and findings, one quantity reader, one rarity
interface. It sits below the workspace, navigation and review, and imports only the core.
"""
