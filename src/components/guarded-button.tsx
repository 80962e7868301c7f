"use client";

import { Button, Tooltip, type ButtonProps } from "@mantine/core";
import type { ReactNode } from "react";

type Props = ButtonProps & {
  /** Why the action is unavailable: the button is disabled and says why in a tooltip and its description. */
  blockedReason: string | null;
  onClick: () => void;
  children: ReactNode;
};

/** A button that stays visible when the user may not use it, with the reason. */
export function GuardedButton({ blockedReason, onClick, children, ...props }: Props) {
  return (
    <Tooltip label={blockedReason} disabled={!blockedReason} multiline maw={320}>
      {/* Disabled buttons get no pointer events; the wrapper keeps the tooltip working. */}
      <span style={{ display: "inline-flex" }}>
        <Button {...props} disabled={Boolean(blockedReason) || props.disabled} onClick={onClick} aria-description={blockedReason ?? undefined}>
          {children}
        </Button>
      </span>
    </Tooltip>
  );
}
