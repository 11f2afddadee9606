import type { TestClient } from './test-app';

type RequestOptions = NonNullable<Parameters<TestClient['post']>[2]>;

/**
 * A new customer through the API, as the /login page makes one: sign-up (which never signs in: it
 * answers the same whether or not the address already has an account), then sign-in with the same
 * email and password into the same client. Answers the sign-in's response ({ user } and the session
 * cookie), or sign-up's when sign-up itself was refused.
 */
export async function signUpAndIn(
  client: TestClient,
  body: { email: string; password: string; name?: string },
  options: RequestOptions = {},
): Promise<Response> {
  const signUp = await client.post('/api/auth/sign-up/email', body, options);
  if (signUp.status !== 200) return signUp;
  return client.post('/api/auth/sign-in/email', { email: body.email, password: body.password }, options);
}
