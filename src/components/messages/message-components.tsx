"use client";

import { Box, Button, Divider, Group, Select, Stack } from "@mantine/core";
import { ButtonStyle, ComponentType } from "discord-api-types/v10";
import { MessageText } from "./message-content.tsx";
import { cssColor, type MentionNames } from "./message-types.ts";

/** The fields of a stored component the dashboard draws; anything else is skipped. */
type StoredComponent = {
  type: number;
  components?: StoredComponent[];
  accessory?: StoredComponent;
  label?: string;
  style?: number;
  placeholder?: string;
  content?: string;
  accent_color?: number | null;
  emoji?: { name?: string | null } | null;
};

const BUTTON_COLORS: Record<number, { color: string; variant: string }> = {
  [ButtonStyle.Primary]: { color: "blue", variant: "filled" },
  [ButtonStyle.Secondary]: { color: "gray", variant: "light" },
  [ButtonStyle.Success]: { color: "green", variant: "filled" },
  [ButtonStyle.Danger]: { color: "red", variant: "filled" },
  [ButtonStyle.Link]: { color: "gray", variant: "default" },
  [ButtonStyle.Premium]: { color: "violet", variant: "light" },
};

const SELECTS: ReadonlySet<number> = new Set([
  ComponentType.StringSelect,
  ComponentType.UserSelect,
  ComponentType.RoleSelect,
  ComponentType.MentionableSelect,
  ComponentType.ChannelSelect,
]);

/** Interactive parts are shown disabled: the dashboard reads messages, it does not answer them. */
function Part({ component, names }: { component: StoredComponent; names: MentionNames }) {
  if (component.type === ComponentType.ActionRow || component.type === ComponentType.Section) {
    return (
      <Group gap="xs" align="flex-start" wrap="wrap">
        {component.components?.map((child, i) => (
          <Part key={i} component={child} names={names} />
        ))}
        {component.accessory ? <Part component={component.accessory} names={names} /> : null}
      </Group>
    );
  }
  if (component.type === ComponentType.Button) {
    const look = BUTTON_COLORS[component.style ?? ButtonStyle.Secondary] ?? BUTTON_COLORS[ButtonStyle.Secondary]!;
    return (
      <Button size="xs" disabled color={look.color} variant={look.variant} className="message-button">
        {[component.emoji?.name, component.label].filter(Boolean).join(" ") || "Button"}
      </Button>
    );
  }
  if (SELECTS.has(component.type)) {
    return (
      <Select size="xs" disabled data={[]} placeholder={component.placeholder ?? "Make a selection"} w={260} aria-label={component.placeholder ?? "Select"} />
    );
  }
  if (component.type === ComponentType.TextDisplay && component.content) return <MessageText text={component.content} names={names} />;
  if (component.type === ComponentType.Separator) return <Divider w="100%" />;
  if (component.type === ComponentType.Container) {
    return (
      <Box className="message-embed" style={{ borderLeftColor: cssColor(component.accent_color) ?? undefined }}>
        <Stack gap="xs">
          {component.components?.map((child, i) => (
            <Part key={i} component={child} names={names} />
          ))}
        </Stack>
      </Box>
    );
  }
  return null;
}

export function MessageComponents({ components, names }: { components: readonly unknown[]; names: MentionNames }) {
  return (
    <Stack gap="xs">
      {(components as StoredComponent[]).map((component, i) => (
        <Part key={i} component={component} names={names} />
      ))}
    </Stack>
  );
}
