/** PostgreSQL's unique_violation (23505), from pg or PGlite alike. */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && err.code === '23505';
}
