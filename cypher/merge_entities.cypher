// One row per distinct entity of the batch. The first name seen is kept as the display name.
UNWIND $entities AS entity
MERGE (n:Entity {ns: $ns, id: entity.id})
  ON CREATE SET n.name = entity.name, n.grounded = entity.grounded
