import { html, type Html } from '../html.ts';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../security/passwords.ts';
import type { Visitor } from '../sessions/visitor.ts';
import { csrfField, layout, notice } from './layout.ts';

export interface AuthForm {
  visitor: Visitor;
  email?: string;
  /** Problems with one field, shown beside it. */
  fieldErrors?: { email?: string; password?: string };
  /** A problem with the whole attempt, shown above the form. */
  error?: string;
  /** Where to go after signing in (an already checked /dashboard path). */
  next?: string;
}

export function signUpPage(form: AuthForm): Html {
  return authCard(form, {
    title: 'Create an account',
    heading: 'Create your account',
    path: '/dashboard/sign-up',
    lead: html`\
<p class="lead-small">Free accounts listen to the samples. Pro and Enterprise add API keys and the full catalog.</p>`,
    fields: html`${emailField(form)}
${passwordField(
  form,
  'new-password',
  `At least ${PASSWORD_MIN_LENGTH} characters. \
A passphrase of a few words is easy to remember.`,
)}`,
    submit: 'Create account',
    other: html`Already have an account? <a href="/dashboard/sign-in">Sign in</a>`,
  });
}

export function signInPage(form: AuthForm): Html {
  return authCard(form, {
    title: 'Sign in',
    heading: 'Sign in',
    path: '/dashboard/sign-in',
    lead: null,
    fields: html`${form.next && html`<input type="hidden" name="next" value="${form.next}">`}
${emailField(form)}
${passwordField(form, 'current-password', null)}`,
    submit: 'Sign in',
    other: html`New here? <a href="/dashboard/sign-up">Create an account</a>`,
  });
}

/** What the two forms share: the card, the error above the form, the token, the way to the other form. */
function authCard(
  form: AuthForm,
  page: { title: string; heading: string; path: string; lead: Html | null; fields: Html; submit: string; other: Html },
): Html {
  return layout({
    title: page.title,
    visitor: form.visitor,
    path: page.path,
    main: html`<section class="auth-card" aria-labelledby="auth-title">
<h1 id="auth-title">${page.heading}</h1>
${page.lead}
${notice('error', form.error)}
<form method="post" action="${page.path}" novalidate>
${csrfField(form.visitor)}
${page.fields}
<button type="submit" class="button button-wide">${page.submit}</button>
</form>
<p class="auth-switch">${page.other}</p>
</section>`,
  });
}

function emailField(form: AuthForm): Html {
  const error = form.fieldErrors?.email;
  return html`<div class="field">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" required maxlength="254" \
value="${form.email ?? ''}"${error && html` aria-invalid="true" aria-describedby="email-error"`}>
${error && html`<p class="field-error" id="email-error">${error}</p>`}
</div>`;
}

function passwordField(form: AuthForm, autocomplete: string, hint: string | null): Html {
  const error = form.fieldErrors?.password;
  const describedBy = [hint && 'password-hint', error && 'password-error'].filter(Boolean).join(' ');
  return html`<div class="field">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="${autocomplete}" required \
maxlength="${PASSWORD_MAX_LENGTH}"${
    autocomplete === 'new-password' &&
    html` \
minlength="${PASSWORD_MIN_LENGTH}"`
  }${
    describedBy &&
    html` \
aria-describedby="${describedBy}"`
  }${error && html` aria-invalid="true"`}>
${hint && html`<p class="field-hint" id="password-hint">${hint}</p>`}
${error && html`<p class="field-error" id="password-error">${error}</p>`}
</div>`;
}
