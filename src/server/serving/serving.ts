import { env } from "~/env.ts";
import { startBackgroundWork } from "~/server/background.ts";
import { createEventRouter } from "~/server/gateway/event-router.ts";
import { createGateway, type Gateway } from "~/server/gateway/gateway.ts";
import type { TrustedProxies } from "~/server/http/client-address.ts";
import { createRuntime, type RuntimeOptions } from "~/server/runtime/create-runtime.ts";
import type { Runtime } from "~/server/runtime/runtime.ts";
import { recordFrames } from "~/server/twin/call-capture.ts";
import { createTwin, type Twin, type TwinOptions } from "~/server/twin/twin.ts";

/**
 * A serving process's parts, built together by its entry (server.ts, Next's handlers, a test
 * twin) and stopped together: the core runtime services reach through their database, and
 * what runs on top of it and no service may import.
 */
export type Serving = {
  readonly runtime: Runtime;
  /** Test mode (src/server/twin): the twin namespace's state and the process's clock; null when test mode is off. */
  readonly twin: Twin | null;
  /** The gateway, when this process serves it (the API server, api-server.ts); null under Next alone. */
  readonly gateway: Gateway | null;
  /**
   * Stops background work, closes the gateway, then the runtime (writes drain, events reach
   * Redis, Redis and the database close), and removes a twin's snapshots.
   */
  stop(): Promise<void>;
};

export type ServingOptions = Omit<RuntimeOptions, "testMode"> & {
  /** Test mode with these options, or off (false); by default GUILDHALL_TEST_MODE with GUILDHALL_TWIN_TOKEN and GUILDHALL_TWIN_REMOTE. */
  twin?: TwinOptions | false;
  /** Serves the gateway with these settings; none by default. */
  gateway?: { publicBaseUrl: string; trustedProxies: TrustedProxies };
};

/** Builds the runtime, then the twin, background work and the gateway on it. */
export function startServing(options: ServingOptions = {}): Serving {
  const config = env();
  const { twin: twinSetting, gateway: gatewaySettings, ...runtimeOptions } = options;
  const twinOptions = twinSetting ?? (config.GUILDHALL_TEST_MODE ? { token: config.GUILDHALL_TWIN_TOKEN, allowRemote: config.GUILDHALL_TWIN_REMOTE } : false);
  const runtime = createRuntime({ ...runtimeOptions, testMode: twinOptions !== false });
  const twin = twinOptions ? createTwin(twinOptions) : null;
  // After the runtime: background work runs changes, which reach it through its database.
  const stopBackground = startBackgroundWork(runtime.db, runtime.events);
  const recorder = twin?.recorder;
  const gateway = gatewaySettings
    ? createGateway({
        db: runtime.db,
        subscribe: runtime.events.subscribe,
        router: createEventRouter({ db: runtime.db }),
        ...gatewaySettings,
        frameLog: recorder ? () => recordFrames(recorder) : undefined,
      })
    : null;
  let stopping: Promise<void> | null = null;
  return {
    runtime,
    twin,
    gateway,
    stop() {
      stopping ??= (async () => {
        stopBackground();
        await gateway?.close();
        await runtime.close();
        twin?.snapshots.discard();
      })();
      return stopping;
    },
  };
}
