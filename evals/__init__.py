"""The eval harness: suites, runner, scorers, reports and benchmarks over the pipeline."""
