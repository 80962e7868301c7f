import { ok } from "~/server/rest/route.ts";
import { faultRoutes } from "./twin-faults.rest.ts";
import { peopleRoutes } from "./twin-people.rest.ts";
import { clockRoutes } from "./twin-clock.rest.ts";
import { callRoutes } from "./twin-calls.rest.ts";
import { twinRoute, type TwinRoute } from "./twin-route.ts";
import { snapshotRoutes } from "./twin-snapshot.rest.ts";

/** The twin namespace's route table (paths below /api/v10/__twin): every control contributes its rows. */
export const TWIN_ROUTES: readonly TwinRoute[] = [
  twinRoute({
    method: "GET",
    path: "/",
    handler: ({ ctx }) => Promise.resolve(ok({ test_mode: true, clock: ctx.twin.clock.state() })),
  }),
  ...faultRoutes,
  ...peopleRoutes,
  ...snapshotRoutes,
  ...clockRoutes,
  ...callRoutes,
];
