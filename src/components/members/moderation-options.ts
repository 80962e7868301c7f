const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Timeout lengths offered as presets, in seconds; the platform allows at most 28 days. */
export const TIMEOUT_PRESETS = [
  { label: "60 seconds", seconds: 60 },
  { label: "5 minutes", seconds: 5 * MINUTE },
  { label: "10 minutes", seconds: 10 * MINUTE },
  { label: "1 hour", seconds: HOUR },
  { label: "1 day", seconds: DAY },
  { label: "1 week", seconds: 7 * DAY },
  { label: "28 days", seconds: 28 * DAY },
] as const;

/** How much of a banned user's message history to delete, as `deleteMessageSeconds`. */
export const DELETE_HISTORY_OPTIONS = [
  { label: "Don't delete any", value: "0" },
  { label: "Previous hour", value: String(HOUR) },
  { label: "Previous 6 hours", value: String(6 * HOUR) },
  { label: "Previous 12 hours", value: String(12 * HOUR) },
  { label: "Previous 24 hours", value: String(DAY) },
  { label: "Previous 3 days", value: String(3 * DAY) },
  { label: "Previous 7 days", value: String(7 * DAY) },
];
