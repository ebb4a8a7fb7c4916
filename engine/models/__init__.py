"""The models, one floor above the core: the chat client and its HTTP exchange, the sentence
encoder seam and the MiniLM encoder it ships (with its int8 tables).

They sit on the core alone; the workspace, navigation and review reach models only through
the seams here (`LLMClient`, `Encoder`), so a model is never a dependency of the contract.
"""
