/**
 * The `-- version N` sections of a schema file, in order. Each upgrades a
 * database at version N-1; numbering must run 1, 2, 3… without gaps.
 */
export function schemaVersions(schemaSql: string, file: string): Array<{ version: number; sql: string }> {
  const parts = schemaSql.split(/^-- version (\d+)\s*$/m);
  const versions: Array<{ version: number; sql: string }> = [];
  for (let i = 1; i < parts.length; i += 2) {
    const version = Number(parts[i]);
    if (version !== versions.length + 1)
      throw new Error(`${file}: expected version ${versions.length + 1}, found ${version}`);
    versions.push({ version, sql: parts[i + 1]! });
  }
  return versions;
}

/** A database written by a newer Parley: this one would misread it, so it is not opened. */
export class NewerSchema extends Error {}

/**
 * The sections a database at version `current` still needs. A database at a
 * version this Parley does not know was written by a newer one: refused,
 * rather than served by code that does not know its tables.
 */
export function versionsToApply(
  schemaSql: string,
  file: string,
  current: number,
): Array<{ version: number; sql: string }> {
  const versions = schemaVersions(schemaSql, file);
  const known = versions.length;
  if (current > known)
    throw new NewerSchema(
      `its schema is version ${current}, written by a newer Parley; this one knows versions up to ${known}: run the newer Parley (or restore a backup made before it)`,
    );
  return versions.filter(({ version }) => version > current);
}
