"use client";

import { Alert, Box, Button, Center, Divider, Paper, PasswordInput, Stack, Text, TextInput, Title } from "@mantine/core";
import { isEmail, isNotEmpty, useForm } from "@mantine/form";
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { IconAlertTriangle, IconBuildingCastle, IconKey } from "~/components/icons.tsx";

// next-auth reports failures as short codes in `?error=`; these are the ones a person can act on.
const ERROR_MESSAGES: Record<string, string> = {
  CredentialsSignin: "That e-mail and password don't match an account.",
  TooManyAttempts: "Too many sign-in attempts. Wait a minute and try again.",
  OAuthSignin: "Could not start single sign-on. Try again.",
  OAuthCallback: "Single sign-on did not complete. Try again.",
  OAuthAccountNotLinked: "This account is linked to a different sign-in method.",
  Callback: "Signing in failed. Try again.",
  SessionRequired: "Sign in to continue.",
};

function errorMessage(code: string): string {
  return ERROR_MESSAGES[code] ?? "Signing in failed. Try again.";
}

type Props = { callbackUrl: string; sso: { id: string; name: string } | null; initialError: string | null };

export function SignInForm({ callbackUrl, sso, initialError }: Props) {
  const router = useRouter();
  const [error, setError] = useState(initialError && errorMessage(initialError));
  const [submitting, setSubmitting] = useState(false);
  const form = useForm({
    initialValues: { email: "", password: "" },
    validate: { email: isEmail("Enter your e-mail address"), password: isNotEmpty("Enter your password") },
  });

  async function handleSubmit(values: typeof form.values) {
    setSubmitting(true);
    setError(null);
    try {
      const result = await signIn("credentials", { email: values.email, password: values.password, redirect: false });
      if (!result?.ok || result.error) {
        setError(errorMessage(result?.error ?? "Callback"));
        return;
      }
      router.replace(callbackUrl);
      router.refresh();
    } catch {
      setError("Could not reach the server. Check your connection and try again.");
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <Center mih="100dvh" p="md" bg="var(--app-page-bg)">
      <Box w="100%" maw={400}>
        <Stack align="center" gap={6} mb="lg">
          <Center w={48} h={48} bg="var(--mantine-primary-color-filled)" c="white" style={{ borderRadius: "var(--mantine-radius-md)" }}>
            <IconBuildingCastle size={28} />
          </Center>
          <Title order={1} fz={26}>
            Sign in to Guildhall
          </Title>
          <Text c="dimmed" size="sm">
            Manage your guilds, roles and channels.
          </Text>
        </Stack>
        <Paper withBorder shadow="sm" p="xl" bg="var(--app-surface-bg)">
          <form onSubmit={form.onSubmit((values) => void handleSubmit(values))} noValidate>
            <Stack gap="md">
              {error ? (
                <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} role="alert" title="Could not sign in">
                  {error}
                </Alert>
              ) : null}
              <TextInput label="Email" type="email" autoComplete="email" {...form.getInputProps("email")} />
              <PasswordInput label="Password" autoComplete="current-password" {...form.getInputProps("password")} />
              <Button type="submit" fullWidth loading={submitting}>
                Sign in
              </Button>
            </Stack>
          </form>
          {sso ? (
            <>
              <Divider label="or" labelPosition="center" my="lg" />
              <Button variant="default" fullWidth leftSection={<IconKey size={16} />} onClick={() => void signIn(sso.id, { callbackUrl })}>
                Continue with {sso.name}
              </Button>
            </>
          ) : null}
        </Paper>
        <Text c="dimmed" size="xs" ta="center" mt="lg">
          No account? Ask whoever runs this Guildhall to create one for you.
        </Text>
      </Box>
    </Center>
  );
}
