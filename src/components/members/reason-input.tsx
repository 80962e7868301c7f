"use client";

import { Button, Group, Stack, Textarea, type TextareaProps } from "@mantine/core";
import { useState, type ReactNode } from "react";
import { AUDIT_REASON_MAX } from "~/server/audit/audit.schema.ts";

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

type ReasonConfirmProps = {
  /** What will happen, and any fields of the action's own above the reason. */
  children: ReactNode;
  confirmLabel: ReactNode;
  color?: string;
  loading: boolean;
  onCancel: () => void;
  onConfirm: (reason: string) => void;
};

/** A moderation confirmation: what happens, a reason for the audit log, Cancel and the action. */
export function ReasonConfirm({ children, confirmLabel, color = "red", loading, onCancel, onConfirm }: ReasonConfirmProps) {
  const [reason, setReason] = useState("");
  return (
    <Stack gap="md">
      {children}
      <ReasonInput value={reason} onChange={(event) => setReason(event.currentTarget.value)} data-autofocus />
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button color={color} loading={loading} onClick={() => onConfirm(reason)}>
          {confirmLabel}
        </Button>
      </Group>
    </Stack>
  );
}
