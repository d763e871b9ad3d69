// Every namespace holding an entity, in name order.
MATCH (n:Entity)
RETURN DISTINCT n.ns AS ns
ORDER BY ns
