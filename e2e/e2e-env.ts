/** Where the end-to-end run serves the built app (E2E_PORT moves it, so two checkouts can run at once). */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3199);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
/** The run's own database, recreated by the global setup. */
export const E2E_DATABASE_URL = "file:./data/e2e.db";
/** The password of every user the tests create. */
export const E2E_PASSWORD = "e2e correct horse battery";
/** What the server prints, copied here as it runs (the playwright config tees it), so tests can find its errors. */
export const E2E_SERVER_LOG = `data/e2e-server-${E2E_PORT}.log`;
