"""What every layer shares: the error tree, the user directories, the registries of languages, sites
and strategies, and a few small helpers. It imports nothing else of cpbot."""
