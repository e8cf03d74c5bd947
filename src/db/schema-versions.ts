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
