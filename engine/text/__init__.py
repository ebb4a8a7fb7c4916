"""The ground floor: how the engine reads language, below the core and every wing.

One concept per module, each imported by its full name (`engine.text.tokens`): the one
Unicode fold (`fold`), format controls (`controls`), text work kept by content (`memo`),
the tokeniser and its named views (`tokens`), the stemmer family (`stems`), the sentence
splitter (`sentences`), text on one line (`lines`) and every closed word list
(`lexicon`). Nothing here imports any other part of the engine.
"""
