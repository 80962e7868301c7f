"use client";

import { Accordion, Anchor, Badge, Code, Group, Stack, Text, TextInput, Title, UnstyledButton } from "@mantine/core";
import { useDeferredValue, useMemo, useState } from "react";
import { IconChevronDown, IconChevronRight, IconSearch } from "~/components/icons.tsx";
import type { ReferenceRoute, ReferenceSection } from "~/server/api-reference/reference-view.ts";
import { SchemaTree } from "./schema-tree.tsx";

const METHOD_COLORS: Record<string, string> = { GET: "blue", POST: "green", PUT: "orange", PATCH: "yellow", DELETE: "red" };

const AUTH_WORDS: Record<ReferenceRoute["auth"], string> = {
  none: "No token",
  bot: "Bot token",
  bearer: "Bearer token",
  any: "Bot or Bearer token",
};

function matches(route: ReferenceRoute, tag: string, words: string[]) {
  const text = `${route.method} ${route.path} ${route.summary} ${route.operationId} ${tag}`.toLowerCase();
  return words.every((word) => text.includes(word));
}

/** Every route of the API, grouped by tag, from this server's OpenAPI document. */
export function ApiReference({ sections }: { sections: ReferenceSection[] }) {
  const [filter, setFilter] = useState("");
  const [opened, setOpened] = useState<string[]>([]);
  const deferred = useDeferredValue(filter);
  const words = useMemo(() => deferred.toLowerCase().split(/\s+/).filter(Boolean), [deferred]);
  const visible = useMemo(
    () =>
      sections
        .map((section) => ({ ...section, routes: section.routes.filter((route) => matches(route, section.tag, words)) }))
        .filter((section) => section.routes.length > 0),
    [sections, words],
  );
  const total = sections.reduce((sum, section) => sum + section.routes.length, 0);
  const shown = visible.reduce((sum, section) => sum + section.routes.length, 0);
  // While filtering, every section with a match is open; otherwise the reader chooses.
  const value = words.length > 0 ? visible.map((section) => section.tag) : opened;

  return (
    <Stack gap="lg" maw={1100} mx="auto">
      <Stack gap={4}>
        <Title order={1} fz={26}>
          API reference
        </Title>
        <Text size="sm" c="dimmed">
          Every route of this server&apos;s HTTP API under <Code>/api/v10</Code>, generated from its route table. The same description as OpenAPI 3.1:{" "}
          <Anchor href="/api/v10/openapi.json" size="sm" underline="always">
            /api/v10/openapi.json
          </Anchor>
          .
        </Text>
      </Stack>
      <TextInput
        label="Filter routes"
        placeholder="Path, name or tag, such as members or PATCH"
        leftSection={<IconSearch size={16} />}
        value={filter}
        onChange={(event) => setFilter(event.currentTarget.value)}
        description={`${shown} of ${total} routes`}
      />
      {visible.length === 0 ? <Text c="dimmed">No route matches “{filter}”.</Text> : null}
      <Accordion multiple variant="separated" value={value} onChange={setOpened}>
        {visible.map((section) => (
          <Accordion.Item key={section.tag} value={section.tag} bg="var(--app-surface-bg)">
            <Accordion.Control>
              <Group gap="xs">
                <Text fw={600}>{section.tag}</Text>
                <Badge size="sm" variant="light" color="gray">
                  {section.routes.length}
                </Badge>
              </Group>
            </Accordion.Control>
            <Accordion.Panel>
              {value.includes(section.tag) ? (
                <Stack gap={4}>
                  {section.routes.map((route) => (
                    <RouteEntry key={route.operationId} route={route} />
                  ))}
                </Stack>
              ) : null}
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </Stack>
  );
}

function RouteEntry({ route }: { route: ReferenceRoute }) {
  const [open, setOpen] = useState(false);
  const detailsId = `route-${route.operationId}`;
  return (
    <div style={{ borderBottom: "1px solid var(--mantine-color-default-border)" }}>
      <UnstyledButton onClick={() => setOpen(!open)} aria-expanded={open} aria-controls={detailsId} w="100%" py={8}>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          {open ? <IconChevronDown size={16} style={{ flexShrink: 0 }} /> : <IconChevronRight size={16} style={{ flexShrink: 0 }} />}
          <Badge color={METHOD_COLORS[route.method] ?? "gray"} variant="filled" style={{ flexShrink: 0, minWidth: 68 }}>
            {route.method}
          </Badge>
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text ff="monospace" size="sm" style={{ overflowWrap: "anywhere" }}>
              {route.path}
            </Text>
            <Text size="xs" c="dimmed">
              {route.summary} · {AUTH_WORDS[route.auth]}
              {route.scopes.length > 0 ? ` (${route.scopes.join(", ")})` : ""}
            </Text>
          </Stack>
        </Group>
      </UnstyledButton>
      {open ? <RouteDetails id={detailsId} route={route} /> : null}
    </div>
  );
}

function RouteDetails({ id, route }: { id: string; route: ReferenceRoute }) {
  return (
    <Stack id={id} gap="sm" pl={{ base: 0, sm: 96 }} pb="md">
      <Section title="Auth">
        <Text size="sm">
          {AUTH_WORDS[route.auth]}
          {route.auth === "bot" || route.auth === "any" ? ": Authorization: Bot <token>" : ""}
          {route.auth === "bearer" ? ": Authorization: Bearer <token>" : ""}
          {route.scopes.length > 0 ? `; scopes ${route.scopes.join(", ")}` : ""}
        </Text>
        {route.open ? (
          <Text size="xs" c="dimmed">
            Open beyond its permissions: {route.open}
          </Text>
        ) : null}
      </Section>
      {route.query.length > 0 ? (
        <Section title="Query parameters">
          <SchemaTree fields={route.query} />
        </Section>
      ) : null}
      {route.body ? (
        <Section title={`Body (${route.body.contentTypes.join(" or ")}${route.body.required ? "" : ", optional"})`}>
          <Text size="sm">
            {[route.body.schema.type, ...route.body.schema.limits, ...(route.body.schema.values ? [`one of ${route.body.schema.values.join(", ")}`] : [])].join(
              " · ",
            )}
          </Text>
          {route.body.schema.children.length > 0 ? <SchemaTree fields={route.body.schema.children} /> : null}
        </Section>
      ) : null}
      <Section title="Answers">
        <Stack gap={4} component="ul" m={0} p={0} style={{ listStyle: "none" }}>
          {route.answers.map((answer) => (
            <Group key={answer.status} component="li" gap={6} wrap="wrap" align="baseline">
              <Badge size="sm" variant="light" color={answer.status.startsWith("2") ? "green" : "gray"}>
                {answer.status}
              </Badge>
              <Text size="sm">{answer.description}</Text>
              {answer.contentType ? (
                <Text size="xs" c="dimmed">
                  {answer.contentType}
                </Text>
              ) : null}
              {answer.schema ? <Code style={{ overflowWrap: "anywhere" }}>{answer.schema}</Code> : null}
            </Group>
          ))}
        </Stack>
      </Section>
    </Stack>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Stack gap={4}>
      <Text size="xs" fw={700} tt="uppercase" c="dimmed">
        {title}
      </Text>
      {children}
    </Stack>
  );
}
