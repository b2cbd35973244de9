# A stand-in for an interpreter without numpy: put first on env.python_path,
# it makes `import numpy` fail as a missing numpy would.
raise ImportError("No module named 'numpy' (tests/bridges/python/no_numpy stands in for a missing numpy)")
