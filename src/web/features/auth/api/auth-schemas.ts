/**
 * The account schemas (and zod with them, about 25 KB of gzipped script) load when a sign-in form
 * is first used, not with the page: the form is on screen and typed into meanwhile, and its submit
 * waits for them. Focusing the form starts the load.
 */
export const loadAuthSchemas = () => import('#common/schemas/auth');

export function preloadAuthSchemas(): void {
  void loadAuthSchemas();
}
