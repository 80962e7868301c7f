"use client";

import { Select } from "@mantine/core";
import { DELETE_HISTORY_OPTIONS } from "./moderation-options.ts";

/** How much of the banned users' message history a ban deletes, in seconds as a string. */
export function DeleteHistorySelect({ value, onChange }: { value: string; onChange: (seconds: string) => void }) {
  return (
    <Select
      label="Delete message history"
      data={DELETE_HISTORY_OPTIONS}
      value={value}
      onChange={(next) => onChange(next ?? "0")}
      allowDeselect={false}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
