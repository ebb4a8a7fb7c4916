"""The models, one floor above the core: the chat client and its HTTP exchange, the sentence
encoder seam and the MiniLM encoder it ships (with its int8 tables), and the reader (a
cross-encoder trained here that types a claim and a sentence NONE / SUPPORT / CONTRADICT).

They sit on the core alone; the workspace, navigation and review reach models only through
the seams here (`LLMClient`, `Encoder`, `Reader`), so a model is never a dependency of the
contract. Each model only proposes (ranks, types, warns); none ever makes anything green,
which stays the router's licensing of exact confirmed text.
"""
