import type { SVGProps } from "react";

type IconProps = Omit<SVGProps<SVGSVGElement>, "children"> & { size?: number };

/** Outline icons drawn on a 24px grid; decorative unless given a `title`-bearing parent. */
function createIcon(paths: readonly string[]) {
  return function Icon({ size = 18, strokeWidth = 1.8, ...props }: IconProps) {
    return (
      <svg
        xmlns="http://www.w3.org/2000/svg"
        width={size}
        height={size}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={strokeWidth}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
        {...props}
      >
        {paths.map((d) => (
          <path key={d} d={d} />
        ))}
      </svg>
    );
  };
}

export const IconSettings = createIcon([
  "M10.325 4.317c.426 -1.756 2.924 -1.756 3.35 0a1.724 1.724 0 0 0 2.573 1.066c1.543 -.94 3.31 .826 2.37 2.37a1.724 1.724 0 0 0 1.065 2.572c1.756 .426 1.756 2.924 0 3.35a1.724 1.724 0 0 0 -1.066 2.573c.94 1.543 -.826 3.31 -2.37 2.37a1.724 1.724 0 0 0 -2.572 1.065c-.426 1.756 -2.924 1.756 -3.35 0a1.724 1.724 0 0 0 -2.573 -1.066c-1.543 .94 -3.31 -.826 -2.37 -2.37a1.724 1.724 0 0 0 -1.065 -2.572c-1.756 -.426 -1.756 -2.924 0 -3.35a1.724 1.724 0 0 0 1.066 -2.573c-.94 -1.543 .826 -3.31 2.37 -2.37c1 .608 2.296 .07 2.572 -1.065z",
  "M9 12a3 3 0 1 0 6 0a3 3 0 0 0 -6 0",
]);
export const IconShield = createIcon(["M12 3a12 12 0 0 0 8.5 3a12 12 0 0 1 -8.5 15a12 12 0 0 1 -8.5 -15a12 12 0 0 0 8.5 -3"]);
export const IconHash = createIcon(["M5 9l14 0", "M5 15l14 0", "M11 4l-4 16", "M17 4l-4 16"]);
export const IconVolume = createIcon([
  "M15 8a5 5 0 0 1 0 8",
  "M17.7 5a9 9 0 0 1 0 14",
  "M6 15h-2a1 1 0 0 1 -1 -1v-4a1 1 0 0 1 1 -1h2l3.5 -4.5a.8 .8 0 0 1 1.5 .5v14a.8 .8 0 0 1 -1.5 .5l-3.5 -4.5",
]);
export const IconSpeakerphone = createIcon([
  "M18 8a3 3 0 0 1 0 6",
  "M10 8v11a1 1 0 0 1 -1 1h-1a1 1 0 0 1 -1 -1v-5",
  "M12 8h0l4.524 -3.77a.9 .9 0 0 1 1.476 .692v12.156a.9 .9 0 0 1 -1.476 .692l-4.524 -3.77h-8a1 1 0 0 1 -1 -1v-4a1 1 0 0 1 1 -1h8",
]);
export const IconMessages = createIcon([
  "M21 14l-3 -3h-7a1 1 0 0 1 -1 -1v-6a1 1 0 0 1 1 -1h9a1 1 0 0 1 1 1v10",
  "M14 15v2a1 1 0 0 1 -1 1h-7l-3 3v-10a1 1 0 0 1 1 -1h2",
]);
export const IconFolder = createIcon(["M5 4h4l3 3h7a2 2 0 0 1 2 2v8a2 2 0 0 1 -2 2h-14a2 2 0 0 1 -2 -2v-11a2 2 0 0 1 2 -2"]);
export const IconPlus = createIcon(["M12 5l0 14", "M5 12l14 0"]);
export const IconTrash = createIcon([
  "M4 7l16 0",
  "M10 11l0 6",
  "M14 11l0 6",
  "M5 7l1 12a2 2 0 0 0 2 2h8a2 2 0 0 0 2 -2l1 -12",
  "M9 7v-3a1 1 0 0 1 1 -1h4a1 1 0 0 1 1 1v3",
]);
export const IconPencil = createIcon(["M4 20h4l10.5 -10.5a2.828 2.828 0 1 0 -4 -4l-10.5 10.5v4", "M13.5 6.5l4 4"]);
export const IconArrowUp = createIcon(["M12 5l0 14", "M18 11l-6 -6", "M6 11l6 -6"]);
export const IconArrowDown = createIcon(["M12 5l0 14", "M18 13l-6 6", "M6 13l6 6"]);
export const IconLogout = createIcon(["M14 8v-2a2 2 0 0 0 -2 -2h-7a2 2 0 0 0 -2 2v12a2 2 0 0 0 2 2h7a2 2 0 0 0 2 -2v-2", "M9 12h12l-3 -3", "M18 15l3 -3"]);
export const IconSun = createIcon([
  "M12 12m-4 0a4 4 0 1 0 8 0a4 4 0 1 0 -8 0",
  "M3 12h1m8 -9v1m8 8h1m-9 8v1m-6.4 -15.4l.7 .7m12.1 -.7l-.7 .7m0 11.4l.7 .7m-12.1 -.7l-.7 .7",
]);
export const IconMoon = createIcon(["M12 3c.132 0 .263 0 .393 0a7.5 7.5 0 0 0 7.92 12.446a9 9 0 1 1 -8.313 -12.454z"]);
export const IconUsers = createIcon([
  "M9 7m-4 0a4 4 0 1 0 8 0a4 4 0 1 0 -8 0",
  "M3 21v-2a4 4 0 0 1 4 -4h4a4 4 0 0 1 4 4v2",
  "M16 3.13a4 4 0 0 1 0 7.75",
  "M21 21v-2a4 4 0 0 0 -3 -3.85",
]);
export const IconCrown = createIcon(["M12 6l4 6l5 -4l-2 10h-14l-2 -10l5 4z"]);
export const IconUpload = createIcon(["M4 17v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2 -2v-2", "M7 9l5 -5l5 5", "M12 4l0 12"]);
export const IconPhoto = createIcon([
  "M15 8h.01",
  "M3 6a3 3 0 0 1 3 -3h12a3 3 0 0 1 3 3v12a3 3 0 0 1 -3 3h-12a3 3 0 0 1 -3 -3v-12z",
  "M3 16l5 -5c.928 -.893 2.072 -.893 3 0l5 5",
  "M14 14l1 -1c.928 -.893 2.072 -.893 3 0l3 3",
]);
export const IconCheck = createIcon(["M5 12l5 5l10 -10"]);
export const IconAlertTriangle = createIcon([
  "M12 9v4",
  "M10.363 3.591l-8.106 13.534a1.914 1.914 0 0 0 1.636 2.871h16.214a1.914 1.914 0 0 0 1.636 -2.87l-8.106 -13.536a1.914 1.914 0 0 0 -3.274 0z",
  "M12 16h.01",
]);
export const IconLock = createIcon([
  "M5 13a2 2 0 0 1 2 -2h10a2 2 0 0 1 2 2v6a2 2 0 0 1 -2 2h-10a2 2 0 0 1 -2 -2v-6z",
  "M11 16a1 1 0 1 0 2 0a1 1 0 0 0 -2 0",
  "M8 11v-4a4 4 0 1 1 8 0v4",
]);
export const IconChevronLeft = createIcon(["M15 6l-6 6l6 6"]);
export const IconChevronRight = createIcon(["M9 6l6 6l-6 6"]);
export const IconChevronDown = createIcon(["M6 9l6 6l6 -6"]);
export const IconBuildingCastle = createIcon([
  "M15 19v-2a3 3 0 0 0 -6 0v2a1 1 0 0 1 -1 1h-4a1 1 0 0 1 -1 -1v-14h4v3h3v-3h4v3h3v-3h4v14a1 1 0 0 1 -1 1h-4a1 1 0 0 1 -1 -1z",
  "M3 11l18 0",
]);
export const IconHistory = createIcon(["M12 8l0 4l2 2", "M3.05 11a9 9 0 1 1 .5 4m-.5 5v-5h5"]);
export const IconRefresh = createIcon(["M20 11a8.1 8.1 0 0 0 -15.5 -2m-.5 -4v4h4", "M4 13a8.1 8.1 0 0 0 15.5 2m.5 4v-4h-4"]);
export const IconKey = createIcon([
  "M16.555 3.843l3.602 3.602a2.877 2.877 0 0 1 0 4.069l-2.643 2.643a2.877 2.877 0 0 1 -4.069 0l-.301 -.301l-6.558 6.558a2 2 0 0 1 -1.239 .578l-.175 .008h-1.172a1 1 0 0 1 -.993 -.883l-.007 -.117v-1.172a2 2 0 0 1 .467 -1.284l.119 -.13l.414 -.414h2v-2h2v-2l2.144 -2.144l-.301 -.301a2.877 2.877 0 0 1 0 -4.069l2.643 -2.643a2.877 2.877 0 0 1 4.069 0z",
  "M15 9h.01",
]);
export const IconBan = createIcon(["M3 12a9 9 0 1 0 18 0a9 9 0 1 0 -18 0", "M5.7 5.7l12.6 12.6"]);
export const IconDots = createIcon(["M4 12a1 1 0 1 0 2 0a1 1 0 1 0 -2 0", "M11 12a1 1 0 1 0 2 0a1 1 0 1 0 -2 0", "M18 12a1 1 0 1 0 2 0a1 1 0 1 0 -2 0"]);
export const IconBook = createIcon(["M3 19a9 9 0 0 1 9 0a9 9 0 0 1 9 0", "M3 6a9 9 0 0 1 9 0a9 9 0 0 1 9 0", "M3 6l0 13", "M12 6l0 13", "M21 6l0 13"]);
export const IconSearch = createIcon(["M3 10a7 7 0 1 0 14 0a7 7 0 1 0 -14 0", "M21 21l-6 -6"]);
export const IconClock = createIcon(["M3 12a9 9 0 1 0 18 0a9 9 0 0 0 -18 0", "M12 7v5l3 3"]);
export const IconInfoCircle = createIcon(["M3 12a9 9 0 1 0 18 0a9 9 0 0 0 -18 0", "M12 9h.01", "M11 12h1v4h1"]);
export const IconUserMinus = createIcon(["M8 7a4 4 0 1 0 8 0a4 4 0 0 0 -8 0", "M6 21v-2a4 4 0 0 1 4 -4h4c.348 0 .686 .045 1.009 .128", "M16 19h6"]);
export const IconUserCheck = createIcon(["M8 7a4 4 0 1 0 8 0a4 4 0 0 0 -8 0", "M6 21v-2a4 4 0 0 1 4 -4h4", "M15 19l2 2l4 -4"]);
export const IconUserOff = createIcon([
  "M8.18 8.189a4.01 4.01 0 0 0 2.616 2.627m3.507 -.545a4 4 0 1 0 -5.59 -5.552",
  "M6 21v-2a4 4 0 0 1 4 -4h4c.412 0 .81 .062 1.183 .178m2.633 2.618c.12 .38 .184 .785 .184 1.204v2",
  "M3 3l18 18",
]);
export const IconLink = createIcon([
  "M9 15l6 -6",
  "M11 6l.463 -.536a5 5 0 0 1 7.071 7.072l-.534 .464",
  "M13 18l-.397 .534a5.068 5.068 0 0 1 -7.127 0a4.972 4.972 0 0 1 0 -7.071l.524 -.463",
]);
export const IconCopy = createIcon([
  "M7 9.667a2.667 2.667 0 0 1 2.667 -2.667h8.666a2.667 2.667 0 0 1 2.667 2.667v8.666a2.667 2.667 0 0 1 -2.667 2.667h-8.666a2.667 2.667 0 0 1 -2.667 -2.667z",
  "M4.012 16.737a2.005 2.005 0 0 1 -1.012 -1.737v-10c0 -1.1 .9 -2 2 -2h10c.75 0 1.158 .385 1.5 1",
]);
export const IconDoorEnter = createIcon(["M13 12v.01", "M3 21h18", "M5 21v-16a2 2 0 0 1 2 -2h6m4 10.5v7.5", "M21 7h-7m3 -3l-3 3l3 3"]);
export const IconShieldPause = createIcon(["M12 21a12 12 0 0 1 -8.5 -15a12 12 0 0 0 8.5 -3a12 12 0 0 0 8.5 3a12 12 0 0 1 -.5 5.5", "M17 17v5", "M21 17v5"]);
/** A signpost: the way into a guild. */
export const IconSignpost = createIcon(["M12 3v2", "M12 10v2", "M12 17v4", "M9 21h6", "M5 5h11l3 2.5l-3 2.5h-11z", "M19 12h-11l-3 2.5l3 2.5h11z"]);
/** A branch off a line: a thread under its channel. */
export const IconThread = createIcon(["M6 4v8a3 3 0 0 0 3 3h11", "M16 11l4 4l-4 4"]);
/** A box with its lid: archived threads. */
export const IconArchive = createIcon([
  "M3 5a1 1 0 0 1 1 -1h16a1 1 0 0 1 1 1v2a1 1 0 0 1 -1 1h-16a1 1 0 0 1 -1 -1z",
  "M5 8v10a2 2 0 0 0 2 2h10a2 2 0 0 0 2 -2v-10",
  "M10 12h4",
]);
/** An open padlock: unlocking. */
export const IconLockOpen = createIcon([
  "M5 13a2 2 0 0 1 2 -2h10a2 2 0 0 1 2 2v6a2 2 0 0 1 -2 2h-10a2 2 0 0 1 -2 -2v-6z",
  "M11 16a1 1 0 1 0 2 0a1 1 0 0 0 -2 0",
  "M8 11v-4a4 4 0 0 1 7.7 -1.5",
]);
/** A speech bubble with a plus: starting a thread. */
export const IconMessagePlus = createIcon(["M4 5h16v11h-9l-5 4v-4h-2z", "M12 8v5", "M9.5 10.5h5"]);
/** A plug on its cord: something connected to the guild. */
// Three nodes passing a message around: the webhook mark.
export const IconWebhook = createIcon([
  "M9.5 6a2.5 2.5 0 1 0 5 0a2.5 2.5 0 1 0 -5 0",
  "M3.5 17a2.5 2.5 0 1 0 5 0a2.5 2.5 0 1 0 -5 0",
  "M15.5 17a2.5 2.5 0 1 0 5 0a2.5 2.5 0 1 0 -5 0",
  "M10.8 8.2l-3.6 6.6",
  "M13.2 8.2l3.6 6.6",
  "M8.5 17h7",
]);
// A paper plane: send.
export const IconSend = createIcon(["M3 11l18 -8l-8 18l-2 -8z", "M11 13l10 -10"]);
export const IconPlug = createIcon(["M9 3v4", "M15 3v4", "M6 7h12v3a6 6 0 0 1 -12 0z", "M12 16v5"]);
/** A banner with an icon and two lines: the guild widget. */
export const IconWidget = createIcon([
  "M3 6a2 2 0 0 1 2 -2h14a2 2 0 0 1 2 2v12a2 2 0 0 1 -2 2h-14a2 2 0 0 1 -2 -2z",
  "M6 10a2 2 0 1 0 4 0a2 2 0 1 0 -4 0",
  "M13 9h5",
  "M13 12h3",
  "M3 15.5h18",
]);

/** A sheet with a folded corner: an attached file. */
export const IconFile = createIcon(["M6 3h8l4 4v14h-12z", "M14 3v4h4", "M9 12h6", "M9 16h6"]);
export const IconApps = createIcon([
  "M4 5a1 1 0 0 1 1 -1h4a1 1 0 0 1 1 1v4a1 1 0 0 1 -1 1h-4a1 1 0 0 1 -1 -1z",
  "M4 15a1 1 0 0 1 1 -1h4a1 1 0 0 1 1 1v4a1 1 0 0 1 -1 1h-4a1 1 0 0 1 -1 -1z",
  "M14 15a1 1 0 0 1 1 -1h4a1 1 0 0 1 1 1v4a1 1 0 0 1 -1 1h-4a1 1 0 0 1 -1 -1z",
  "M14 7l6 0",
  "M17 4l0 6",
]);
export const IconGripVertical = createIcon([
  "M8 5a1 1 0 1 0 2 0a1 1 0 1 0 -2 0",
  "M8 12a1 1 0 1 0 2 0a1 1 0 1 0 -2 0",
  "M8 19a1 1 0 1 0 2 0a1 1 0 1 0 -2 0",
  "M14 5a1 1 0 1 0 2 0a1 1 0 1 0 -2 0",
  "M14 12a1 1 0 1 0 2 0a1 1 0 1 0 -2 0",
  "M14 19a1 1 0 1 0 2 0a1 1 0 1 0 -2 0",
]);
export const IconMoodSmile = createIcon(["M12 12m-9 0a9 9 0 1 0 18 0a9 9 0 1 0 -18 0", "M9 10l.01 0", "M15 10l.01 0", "M9.5 15a3.5 3.5 0 0 0 5 0"]);
export const IconSticker = createIcon(["M20 12l-2 .5a6 6 0 0 1 -6.5 -6.5l.5 -2l8 8", "M20 12a8 8 0 1 1 -8 -8"]);
export const IconArrowBackUp = createIcon(["M9 14l-4 -4l4 -4", "M5 10h11a4 4 0 1 1 0 8h-1"]);
export const IconPin = createIcon(["M15 4.5l-4 4l-4 1.5l-1.5 1.5l7 7l1.5 -1.5l1.5 -4l4 -4", "M9 15l-4.5 4.5", "M14.5 4l5.5 5.5"]);
export const IconMoodPlus = createIcon([
  "M20.985 12.528a9 9 0 1 0 -8.45 8.456",
  "M16 19h6",
  "M19 16v6",
  "M9 10h.01",
  "M15 10h.01",
  "M9.5 15c.658 .64 1.56 1 2.5 1s1.842 -.36 2.5 -1",
]);
export const IconPaperclip = createIcon(["M15 7l-6.5 6.5a1.5 1.5 0 0 0 3 3l6.5 -6.5a3 3 0 0 0 -6 -6l-6.5 6.5a4.5 4.5 0 0 0 9 9l6.5 -6.5"]);
export const IconTerminal = createIcon(["M8 9l3 3l-3 3", "M13 15l3 0", "M3 6a2 2 0 0 1 2 -2h14a2 2 0 0 1 2 2v12a2 2 0 0 1 -2 2h-14a2 2 0 0 1 -2 -2z"]);
