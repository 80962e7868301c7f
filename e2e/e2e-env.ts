/** Where the end-to-end run serves the built app (E2E_PORT moves it, so two checkouts can run at once). */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3199);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
/** The run's own database, recreated by the global setup. */
export const E2E_DATABASE_URL = "file:./data/e2e.db";
/** A second server, in test mode, for the Inspector's tests (the first runs with test mode off, as production does). */
export const E2E_TWIN_PORT = E2E_PORT + 1;
export const E2E_TWIN_BASE_URL = `http://127.0.0.1:${E2E_TWIN_PORT}`;
export const E2E_TWIN_DATABASE_URL = "file:./data/e2e-twin.db";
/** The password of every user the tests create. */
export const E2E_PASSWORD = "e2e correct horse battery";
/** What the server prints, copied here as it runs (the playwright config tees it), so tests can find its errors. */
export const E2E_SERVER_LOG = `data/e2e-server-${E2E_PORT}.log`;
