"use client";

import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type UniqueIdentifier,
} from "@dnd-kit/core";
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { ActionIcon, Badge, ColorSwatch, Group, Table, Text, Tooltip, VisuallyHidden } from "@mantine/core";
import { PermissionFlagsBits } from "discord-api-types/v10";
import { useState } from "react";
import { GuardedAction } from "~/components/guarded-action.tsx";
import { IconArrowDown, IconArrowUp, IconGripVertical, IconLock, IconPencil, IconTrash } from "~/components/icons.tsx";
import classes from "./role-table.module.css";
import { colorToHex, type RoleObject, type RoleRow } from "./role-values.ts";

/** A move the page asks the server for: one step, or to where another role is (a drop). */
type RoleMove = { roleId: string; direction: "up" | "down" } | { roleId: string; toRoleId: string };

type Props = {
  guildId: string;
  /** Highest first, @everyone last, as the server ranks them. */
  rows: readonly RoleRow[];
  /** Set when the viewer lacks Manage Roles: every row is locked alike and the page says why once. */
  manageReason: string | null;
  moving: boolean;
  onMove: (move: RoleMove) => Promise<unknown>;
  onEdit: (row: RoleRow) => void;
  onDelete: (role: RoleObject) => void;
};

function countPermissions(permissions: string): number {
  let bits = BigInt(permissions);
  let count = 0;
  while (bits) {
    count += Number(bits & 1n);
    bits >>= 1n;
  }
  return count;
}

/**
 * The roles in the hierarchy's order. A role moves by its arrows or by dragging its handle
 * (pointer or keyboard: Space, the arrow keys, Space); a row the server says may not move
 * neither drags nor takes a dropped role. On narrow screens each row stacks as a card.
 */
export function RoleTable({ guildId, rows, manageReason, moving, onMove, onEdit, onDelete }: Props) {
  // The order shown while a drop is being saved, so the row stays where it was dropped.
  const [dropped, setDropped] = useState<string[] | null>(null);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const byId = new Map(rows.map((row) => [row.role.id, row]));
  const ranked = (dropped ?? rows.map((row) => row.role.id)).flatMap((id) => byId.get(id) ?? []).filter((row) => row.role.id !== guildId);
  const everyone = byId.get(guildId);
  const nameOf = (id: UniqueIdentifier) => byId.get(String(id))?.role.name ?? "the role";

  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${nameOf(active.id)}.`,
    onDragOver: ({ active, over }) => (over ? `${nameOf(active.id)} is over ${nameOf(over.id)}.` : `${nameOf(active.id)} is not over a role.`),
    onDragEnd: ({ active, over }) => (over ? `${nameOf(active.id)} was dropped where ${nameOf(over.id)} was.` : `${nameOf(active.id)} was dropped.`),
    onDragCancel: ({ active }) => `Moving ${nameOf(active.id)} was cancelled.`,
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const ids = ranked.map((row) => row.role.id);
    setDropped([...arrayMove(ids, ids.indexOf(String(active.id)), ids.indexOf(String(over.id))), guildId]);
    void onMove({ roleId: String(active.id), toRoleId: String(over.id) }).finally(() => setDropped(null));
  };

  const props = { guildId, manageReason, moving, onMove, onEdit, onDelete };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        announcements,
        screenReaderInstructions: {
          draggable: "To move a role, press Space, move it with the up and down arrow keys, then press Space to drop it or Escape to cancel.",
        },
      }}
    >
      <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover className={classes.table}>
        <Table.Thead className={classes.head}>
          <Table.Tr>
            <Table.Th>Role</Table.Th>
            <Table.Th w={90}>Position</Table.Th>
            <Table.Th>Shown to members</Table.Th>
            <Table.Th>Permissions</Table.Th>
            <Table.Th w={210} ta="right">
              Actions
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          <SortableContext items={ranked.map((row) => row.role.id)} strategy={verticalListSortingStrategy}>
            {ranked.map((row) => (
              <RoleTableRow key={row.role.id} row={row} {...props} />
            ))}
          </SortableContext>
          {everyone ? <RoleTableRow row={everyone} {...props} /> : null}
        </Table.Tbody>
      </Table>
    </DndContext>
  );
}

type RowProps = Omit<Props, "rows"> & { row: RoleRow };

function RoleTableRow({ row, guildId, manageReason, moving, onMove, onEdit, onDelete }: RowProps) {
  const { role, denials } = row;
  const isEveryone = role.id === guildId;
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: role.id,
    disabled: isEveryone || Boolean(denials.move) || moving,
  });
  // Without Manage Roles every row is locked alike; the page header says why once.
  const lock = manageReason ? null : denials.edit;
  const permissionCount = countPermissions(role.permissions);
  const isAdmin = (BigInt(role.permissions) & PermissionFlagsBits.Administrator) !== 0n;
  const isPlain = !role.hoist && !role.mentionable && !row.managedBy;
  const dragLabel = denials.move ? `Drag ${role.name} (${denials.move})` : `Drag ${role.name}`;

  return (
    <Table.Tr
      ref={setNodeRef}
      className={classes.row}
      data-dragging={isDragging || undefined}
      style={{ transform: CSS.Translate.toString(transform && { ...transform, x: 0 }), transition }}
    >
      <Table.Td className={classes.name}>
        <Group gap="sm" wrap="nowrap">
          {isEveryone ? null : (
            <Tooltip label={denials.move ? `Drag ${role.name}: ${denials.move}` : `Drag ${role.name}`}>
              {/* Disabled buttons get no pointer events; the wrapper keeps the tooltip working. */}
              <span style={{ display: "inline-flex" }}>
                <ActionIcon
                  ref={setActivatorNodeRef}
                  variant="subtle"
                  color="gray"
                  className={`guarded-action ${classes.handle}`}
                  disabled={Boolean(denials.move) || moving}
                  {...attributes}
                  {...listeners}
                  aria-label={dragLabel}
                  aria-roledescription="draggable role"
                >
                  <IconGripVertical size={16} />
                </ActionIcon>
              </span>
            </Tooltip>
          )}
          <ColorSwatch color={colorToHex(role.color) || "var(--mantine-color-gray-5)"} size={14} withShadow={false} aria-hidden />
          <Text fw={500} size="sm">
            {role.name}
          </Text>
          {lock && !isEveryone ? (
            <Tooltip label={lock}>
              <span role="img" aria-label={lock} style={{ display: "inline-flex", color: "var(--mantine-color-dimmed)" }}>
                <IconLock size={14} />
              </span>
            </Tooltip>
          ) : null}
        </Group>
      </Table.Td>
      <Table.Td className={classes.cell} data-label="Position">
        <Text size="sm" c="dimmed">
          {role.position}
        </Text>
      </Table.Td>
      <Table.Td className={classes.cell} data-label="Shown" data-empty={isPlain || undefined}>
        <Group gap={6}>
          {role.hoist ? (
            <Badge size="sm" variant="light" color="blue">
              Shown separately
            </Badge>
          ) : null}
          {role.mentionable ? (
            <Badge size="sm" variant="light" color="grape">
              Mentionable
            </Badge>
          ) : null}
          {row.managedBy ? (
            <Tooltip label={row.managedBy}>
              <Badge size="sm" variant="light" color="gray" tabIndex={0}>
                Managed
                <VisuallyHidden>: {row.managedBy}</VisuallyHidden>
              </Badge>
            </Tooltip>
          ) : null}
          {isPlain ? (
            <Text size="sm" c="dimmed">
              —
            </Text>
          ) : null}
        </Group>
      </Table.Td>
      <Table.Td className={classes.cell} data-label="Permissions">
        {isAdmin ? (
          <Badge size="sm" variant="light" color="orange">
            Administrator
          </Badge>
        ) : (
          <Text size="sm" c="dimmed">
            {permissionCount} {permissionCount === 1 ? "permission" : "permissions"}
          </Text>
        )}
      </Table.Td>
      <Table.Td className={classes.actions}>
        <Group gap={2} justify="flex-end" wrap="nowrap">
          {isEveryone ? null : (
            <>
              <GuardedAction
                label={`Move ${role.name} up`}
                blockedReason={denials.moveUp}
                disabled={moving}
                onClick={() => void onMove({ roleId: role.id, direction: "up" })}
              >
                <IconArrowUp size={16} />
              </GuardedAction>
              <GuardedAction
                label={`Move ${role.name} down`}
                blockedReason={denials.moveDown}
                disabled={moving}
                onClick={() => void onMove({ roleId: role.id, direction: "down" })}
              >
                <IconArrowDown size={16} />
              </GuardedAction>
            </>
          )}
          <GuardedAction label={`Edit ${role.name}`} blockedReason={denials.edit} onClick={() => onEdit(row)}>
            <IconPencil size={16} />
          </GuardedAction>
          {isEveryone ? null : (
            <GuardedAction label={`Delete ${role.name}`} color="red" blockedReason={denials.delete} onClick={() => onDelete(role)}>
              <IconTrash size={16} />
            </GuardedAction>
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
