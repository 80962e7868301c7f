/** Where the end-to-end run serves the built app (E2E_PORT moves it, so two checkouts can run at once). */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3199);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
/** The run's own database, recreated before the server starts. */
export const E2E_DATABASE_URL = "file:./data/e2e.db";
/** The password of every user the tests create. */
export const E2E_PASSWORD = "e2e correct horse battery";
/**
 * Every rate limit, multiplied: the run signs in hundreds of users from one address within
 * minutes, past the per-address sign-in limit that stops password guessing (60 a minute).
 */
export const E2E_RATE_LIMIT_SCALE = "10";

/** What the server on `port` prints, copied here as it runs, so tests can find its errors. */
export function serverLog(port: number): string {
  return `data/e2e-server-${port}.log`;
}
export const E2E_SERVER_LOG = serverLog(E2E_PORT);
