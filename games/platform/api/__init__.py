"""The REST API: one view per operation, through the observation and the services."""
