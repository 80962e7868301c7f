"use client";

import { MantineProvider } from "@mantine/core";
import { ModalsProvider } from "@mantine/modals";
import { Notifications } from "@mantine/notifications";
import type { ReactNode } from "react";
import { z } from "zod";
import { TRPCReactProvider } from "~/trpc/react.tsx";
import { cssVariablesResolver, theme } from "./theme.ts";

// Zod compiles its parsers with `new Function` where it may; the pages' content security policy
// allows no eval, so in the browser it parses without compiling (nor probing, which the
// browser would report as a violation). Servers keep the compiled parsers.
if (typeof window !== "undefined") z.config({ jitless: true });

export function Providers({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
      <TRPCReactProvider>
        <ModalsProvider labels={{ confirm: "Confirm", cancel: "Cancel" }}>
          <Notifications position="top-right" />
          {children}
        </ModalsProvider>
      </TRPCReactProvider>
    </MantineProvider>
  );
}
