// Remove a namespace in bounded transactions (run in an auto-commit session).
MATCH (n:Entity {ns: $ns})
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS
