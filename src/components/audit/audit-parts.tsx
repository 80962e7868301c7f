"use client";

import { Anchor, ColorSwatch, Text } from "@mantine/core";
import Link from "next/link";
import { Fragment } from "react";
import { colorToHex } from "~/components/roles/role-values.ts";
import type { Part } from "./audit-refs.ts";

/** Words, names (linked to where they live while they exist; a gone one struck through) and colour swatches. */
export function Parts({ parts }: { parts: readonly Part[] }) {
  return (
    <>
      {parts.map((part, index) => {
        if (typeof part === "string") return <Fragment key={index}>{part}</Fragment>;
        if ("color" in part) {
          const hex = colorToHex(part.color);
          return (
            <Fragment key={index}>
              <ColorSwatch component="span" color={hex} size={12} withShadow={false} aria-hidden style={{ display: "inline-block", verticalAlign: "-1px" }} />{" "}
              {hex}
            </Fragment>
          );
        }
        const { ref } = part;
        if (ref.href) {
          return (
            <Anchor key={index} component={Link} href={ref.href} fw={600} inherit>
              {ref.text}
            </Anchor>
          );
        }
        return (
          <Text key={index} span inherit fw={600} c={ref.deleted ? "dimmed" : undefined}>
            {ref.text}
          </Text>
        );
      })}
    </>
  );
}
