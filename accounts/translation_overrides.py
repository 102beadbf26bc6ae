"""django-allauth's and Django's own strings that our catalogs translate again.

The login, signup, verification, password and email pages, and the emails behind them, come
from django-allauth, with Django's password validators under the password fields. Where their
Greek or French uses other words than locale/GLOSSARY.md (or is wrong), our catalog translates
the same msgid: LOCALE_PATHS comes before the apps' catalogs, so ours wins. Listing the msgids
here keeps those entries alive when makemessages regenerates the catalogs. Nothing imports this.
"""

from django.utils.translation import gettext_noop, ngettext_lazy

THIRD_PARTY_STRINGS = (
    gettext_noop("Sign In"),
    gettext_noop("Sign Up"),
    gettext_noop("Email"),
    gettext_noop("Password"),
    gettext_noop("Password (again)"),
    gettext_noop("Remember Me"),
    gettext_noop("Forgot your password?"),
    gettext_noop(
        "If you have not created an account yet, then please %(link)ssign up%(end_link)s first."
    ),
    gettext_noop("Already have an account? Then please %(link)ssign in%(end_link)s."),
    gettext_noop("The email address and/or password you specified are not correct."),
    gettext_noop("A user is already registered with this email address."),
    gettext_noop("You must type the same password each time."),
    gettext_noop("Successfully signed in as %(name)s."),
    gettext_noop("You have signed out."),
    gettext_noop("Are you sure you want to sign out?"),
    gettext_noop("Verify Your Email Address"),
    gettext_noop(
        "We have sent an email to you for verification. Follow the link provided to "
        "finalize the signup process. If you do not see the verification email in "
        "your main inbox, check your spam folder. Please contact us if you do not "
        "receive the verification email within a few minutes."
    ),
    gettext_noop("Confirm Email Address"),
    gettext_noop(
        'Please confirm that <a href="mailto:%(email)s">%(email)s</a> is an email '
        "address for user %(user_display)s."
    ),
    gettext_noop(
        "This email confirmation link expired or is invalid. Please <a "
        'href="%(email_url)s">issue a new email confirmation request</a>.'
    ),
    gettext_noop("Confirmation email sent to %(email)s."),
    gettext_noop("You have confirmed %(email)s."),
    gettext_noop("Your primary email address must be verified."),
    gettext_noop("Your account has no verified email address."),
    gettext_noop("Please Confirm Your Email Address"),
    gettext_noop(
        "You're receiving this email because user %(user_display)s has given your "
        "email address to register an account on %(site_domain)s."
    ),
    gettext_noop("Hello from %(site_name)s!"),
    gettext_noop("Thank you for using %(site_name)s!\n%(site_domain)s"),
    gettext_noop("This email address is already associated with this account."),
    gettext_noop("Removed email address %(email)s."),
    gettext_noop("Enter a valid email address."),
    gettext_noop("Password Reset"),
    gettext_noop("Reset My Password"),
    gettext_noop("Please contact us if you have any trouble resetting your password."),
    gettext_noop(
        "We have sent you an email. If you have not received it please check your "
        "spam folder. Otherwise contact us if you do not receive it in a few "
        "minutes."
    ),
    gettext_noop("Password Reset Email"),
    gettext_noop(
        "You're receiving this email because you or someone else has requested a "
        "password reset for your user account.\nIt can be safely ignored if you did "
        "not request a password reset. Click the link below to reset your password."
    ),
    gettext_noop("Bad Token"),
    gettext_noop(
        "The password reset link was invalid, possibly because it has already been "
        'used.  Please request a <a href="%(passwd_reset_url)s">new password '
        "reset</a>."
    ),
    gettext_noop("The password reset token was invalid."),
    gettext_noop("Change Password"),
    gettext_noop("Set Password"),
    gettext_noop("Current Password"),
    gettext_noop("New Password"),
    gettext_noop("New Password (again)"),
    gettext_noop("Please type your current password."),
    gettext_noop(
        "Forgotten your password? Enter your email address below, and we'll send you an email "
        "allowing you to reset it."
    ),
    gettext_noop("Enter your password:"),
    gettext_noop("Your account has no password set up."),
    gettext_noop("Your password is now changed."),
    gettext_noop("Password successfully changed."),
    gettext_noop("Password successfully set."),
    ngettext_lazy(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
        1,
    ),
    ngettext_lazy(
        "Your password must contain at least %(min_length)d character.",
        "Your password must contain at least %(min_length)d characters.",
        1,
    ),
    gettext_noop("The password is too similar to the %(verbose_name)s."),
    gettext_noop("Your password can’t be too similar to your other personal information."),  # noqa: RUF001
    gettext_noop("This password is too common."),
    gettext_noop("Your password can’t be a commonly used password."),  # noqa: RUF001
    gettext_noop("This password is entirely numeric."),
    gettext_noop("Your password can’t be entirely numeric."),  # noqa: RUF001
)
