import type { MailMessage } from './mail';

/*
 * The panel's mail about accounts, one wording wherever it is sent from: the invitation to set a
 * first password (a subuser invited by address, an account an admin made without a password) and
 * the password-reset link (forgot password, or an admin's reset link).
 */

/** `why` finishes "An account was created for you on <panel>…" (for example " to share the server "X""). */
export function accountCreatedMail(appName: string, to: string, link: string, why = ''): MailMessage {
  return {
    to,
    subject: `${appName}: an account was created for you`,
    text: [
      `An account was created for you on ${appName}${why}.`,
      '',
      `Set your password here within 60 minutes: ${link}`,
      '',
      `Later, "Forgot password" on the sign-in page sends a new link.`,
    ].join('\n'),
  };
}

/** `asked` says who asked for it: the user themselves (forgot password) or the panel's administrator. */
export function passwordResetMail(appName: string, to: string, link: string, asked: 'self' | 'admin' = 'self'): MailMessage {
  return {
    to,
    subject: `${appName}: reset your password`,
    text: [
      asked === 'self'
        ? `Someone (hopefully you) asked to reset the password of your ${appName} account.`
        : `An administrator of ${appName} sent you a link to set a new password for your account.`,
      '',
      `Set a new one here within 60 minutes: ${link}`,
      '',
      'If you did not ask for this, ignore this mail: your password stays as it is.',
    ].join('\n'),
  };
}
