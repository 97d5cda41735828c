"""The archive of finished games in PostgreSQL: the schema, the pool, a throwaway server for development."""
