/** Query keys of the auth feature. */
export const authKeys = {
  all: ['auth'] as const,
  me: () => [...authKeys.all, 'me'] as const,
  /** The sign-out mutation: guarded pages wait while it runs instead of sending to /login. */
  signOut: () => [...authKeys.all, 'sign-out'] as const,
};
