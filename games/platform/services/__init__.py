"""The platform's use cases: one function each, keyword-only, transactional."""
