"""The reading layer: how both wings read text, on the ground floor's language (`engine.text`).

One reader of aims and findings, one quantity reader, one rarity interface, the claim a
question asks. It sits below the workspace, navigation and review, and imports only the
core and the ground floor.
"""
