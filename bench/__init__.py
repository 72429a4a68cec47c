"""Benchmarks: ``python -m bench`` runs every ``bench/<name>.py`` that defines ``main()``;
``python -m bench.<name>`` runs one. Each prints a table with ratios to a baseline measured
in the same run."""
