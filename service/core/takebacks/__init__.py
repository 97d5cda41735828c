"""Takebacks: the policy that judges them (policy.py) and the steps that commit them
(steps.py)."""
