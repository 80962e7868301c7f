"use client";

import { MantineProvider } from "@mantine/core";
import { ModalsProvider } from "@mantine/modals";
import { Notifications } from "@mantine/notifications";
import type { ReactNode } from "react";
import { TRPCReactProvider } from "~/trpc/react.tsx";
import { theme } from "./theme.ts";

export function Providers({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="auto">
      <TRPCReactProvider>
        <ModalsProvider labels={{ confirm: "Confirm", cancel: "Cancel" }}>
          <Notifications position="top-right" />
          {children}
        </ModalsProvider>
      </TRPCReactProvider>
    </MantineProvider>
  );
}
