// Uniqueness of entities per namespace, and the lookups by namespace.
CREATE CONSTRAINT entity_key IF NOT EXISTS
FOR (n:Entity) REQUIRE (n.ns, n.id) IS UNIQUE;
CREATE INDEX entity_ns IF NOT EXISTS
FOR (n:Entity) ON (n.ns);
