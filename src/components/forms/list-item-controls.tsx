import { ActionIcon, Group } from "@mantine/core";
import { IconArrowDown, IconArrowUp, IconTrash } from "~/components/icons.tsx";

/** The list operations of a Mantine form that the controls use. */
type ListForm = {
  reorderListItem: (path: string, payload: { from: number; to: number }) => void;
  removeListItem: (path: string, index: number) => void;
};

type Props = {
  form: ListForm;
  /** The list's path in the form, e.g. "prompts" or "prompts.0.options". */
  list: string;
  index: number;
  count: number;
  /** Names the item in the buttons' labels: "Move {label} up". */
  label: string;
  disabled: boolean;
  /** The item may not be removed (e.g. the last one of a list that needs one). */
  keep?: boolean;
  size?: "sm" | "md";
};

/** Move up, move down and remove for one item of an editable list in a form. */
export function ListItemControls({ form, list, index, count, label, disabled, keep = false, size = "md" }: Props) {
  const iconSize = size === "sm" ? 14 : 16;
  return (
    <Group gap={2} wrap="nowrap">
      <ActionIcon
        size={size}
        variant="subtle"
        aria-label={`Move ${label} up`}
        disabled={disabled || index === 0}
        onClick={() => form.reorderListItem(list, { from: index, to: index - 1 })}
      >
        <IconArrowUp size={iconSize} />
      </ActionIcon>
      <ActionIcon
        size={size}
        variant="subtle"
        aria-label={`Move ${label} down`}
        disabled={disabled || index === count - 1}
        onClick={() => form.reorderListItem(list, { from: index, to: index + 1 })}
      >
        <IconArrowDown size={iconSize} />
      </ActionIcon>
      <ActionIcon
        size={size}
        variant="subtle"
        color="red"
        aria-label={`Remove ${label}`}
        disabled={disabled || keep}
        onClick={() => form.removeListItem(list, index)}
      >
        <IconTrash size={iconSize} />
      </ActionIcon>
    </Group>
  );
}
