"""_evaluation."""
