-- lock_history: a transaction-level advisory lock keyed by the schema name, so two processes upgrading the
-- same schema at once apply each migration once (released at COMMIT or ROLLBACK).
-- context: schema
SELECT pg_advisory_xact_lock(hashtext(%s))
-- bind parameters: ['sqlanon.history:we"ird; col']
