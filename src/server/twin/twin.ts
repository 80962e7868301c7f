import { randomBytes } from "node:crypto";
import { CallRecorder } from "./call-recorder.ts";
import { installTwinClock, type TwinClock } from "./twin-clock.ts";
import { createTwinFaults, type TwinFaults } from "./twin-faults.ts";
import { TwinSnapshots } from "./twin-snapshots.ts";

/**
 * Test mode's state in a serving process (serving.twin; null when test mode is off): the admin token
 * the twin namespace (/api/v10/__twin) asks for, whether callers beyond loopback may use it,
 * the process's clock, the REST faults injected into calls, and its snapshots.
 */
export type Twin = {
  /** `Authorization: Twin <token>` on every twin request (compared in constant time). */
  readonly token: string;
  /** Callers beyond loopback may use the twin namespace (GUILDHALL_TWIN_REMOTE=1). */
  readonly allowRemote: boolean;
  readonly clock: TwinClock;
  readonly faults: TwinFaults;
  /** Copies of the whole state to restore (SQLite only); removed when the serving stops. */
  readonly snapshots: TwinSnapshots;
  /** Every REST request and gateway frame of each application, for the twin's calls and the Inspector page. */
  readonly recorder: CallRecorder;
};

export type TwinOptions = {
  /** The admin token; a random one by default. */
  token?: string;
  allowRemote?: boolean;
};

export function createTwin(options: TwinOptions = {}): Twin {
  const clock = installTwinClock();
  return {
    token: options.token ?? randomBytes(24).toString("base64url"),
    allowRemote: options.allowRemote ?? false,
    clock,
    faults: createTwinFaults(),
    snapshots: new TwinSnapshots(clock),
    recorder: new CallRecorder(),
  };
}
