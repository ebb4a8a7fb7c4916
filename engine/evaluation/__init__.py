"""Evaluation and tuning: the SciFact figures, the soundness mutants, the folds every tuning
splits by, and the tools that fit the offline thresholds and the stance model. Nothing in
the product imports it; the `eval` commands and the tuning runs do.
"""
