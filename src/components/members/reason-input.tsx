"use client";

import { Textarea, type TextareaProps } from "@mantine/core";
import { AUDIT_REASON_MAX } from "~/server/members/member.schema.ts";

/** Why a moderator acts: recorded on the audit log entry, as the REST X-Audit-Log-Reason header is. */
export function ReasonInput(props: Omit<TextareaProps, "label" | "maxLength">) {
  return (
    <Textarea
      label="Reason"
      description="Optional. Recorded in the audit log."
      placeholder="Why are you doing this?"
      autosize
      minRows={2}
      maxRows={5}
      maxLength={AUDIT_REASON_MAX}
      {...props}
    />
  );
}
