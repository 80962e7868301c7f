"use client";

import { ActionIcon, Tooltip, type ActionIconProps } from "@mantine/core";
import type { ReactNode } from "react";

type Props = ActionIconProps & {
  label: string;
  /** Why the action is unavailable; shown as the tooltip and read with the label. */
  blockedReason?: string | null;
  onClick?: () => void;
  children: ReactNode;
};

/** An icon button that explains itself: its label as a tooltip, or why it is disabled. */
export function GuardedAction({ label, blockedReason, onClick, children, ...props }: Props) {
  const blocked = Boolean(blockedReason) || props.disabled;
  return (
    <Tooltip label={blockedReason ? `${label}: ${blockedReason}` : label}>
      {/* Disabled buttons get no pointer events; the wrapper keeps the tooltip working. */}
      <span style={{ display: "inline-flex" }}>
        <ActionIcon
          variant="subtle"
          color="gray"
          className="guarded-action"
          aria-label={blockedReason ? `${label} (${blockedReason})` : label}
          {...props}
          disabled={blocked}
          onClick={onClick}
        >
          {children}
        </ActionIcon>
      </span>
    </Tooltip>
  );
}
