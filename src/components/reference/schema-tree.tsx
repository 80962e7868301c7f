import { Badge, Code, Group, Stack, Text } from "@mantine/core";
import type { SchemaField } from "~/server/api-reference/reference-view.ts";

/** One field of a query or body: name, type, whether it is required, limits and allowed values; its own fields below it. */
function FieldRow({ field }: { field: SchemaField }) {
  return (
    <li>
      <Group gap={6} wrap="wrap" align="baseline">
        {field.name ? <Code fw={600}>{field.name}</Code> : null}
        <Text size="sm" c="dimmed" component="span">
          {field.type}
          {field.nullable ? " or null" : ""}
        </Text>
        {field.required ? (
          <Badge size="xs" color="red" variant="light">
            required
          </Badge>
        ) : (
          <Badge size="xs" color="gray" variant="light">
            optional
          </Badge>
        )}
      </Group>
      {field.limits.length > 0 || field.values ? (
        <Text size="xs" c="dimmed" style={{ overflowWrap: "anywhere" }}>
          {[...field.limits, ...(field.values ? [`one of ${field.values.join(", ")}`] : [])].join(" · ")}
        </Text>
      ) : null}
      {field.description ? <Text size="xs">{field.description}</Text> : null}
      {field.children.length > 0 ? <SchemaTree fields={field.children} /> : null}
    </li>
  );
}

export function SchemaTree({ fields }: { fields: SchemaField[] }) {
  return (
    <Stack component="ul" gap={6} m={0} pl="md" style={{ listStyle: "none", borderLeft: "1px solid var(--mantine-color-default-border)" }}>
      {fields.map((field, index) => (
        <FieldRow key={`${field.name ?? "item"}-${index}`} field={field} />
      ))}
    </Stack>
  );
}
