"""What a socket's handshake (its Channels `scope`) says about its client: the address
the socket caps and limits count, and the language its frames are written in."""
from django.conf import settings
from django.utils import translation


def client_address(scope):
    """The client's IP address (str, "" when unknown): the socket's peer, or with
    OKEY_TRUSTED_PROXY_COUNT proxies in front the X-Forwarded-For entry they received it
    from (the same rule as the login limits)."""
    count = settings.ALLAUTH_TRUSTED_PROXY_COUNT
    if count > 0:
        for name, value in scope.get("headers", []):
            if name == b"x-forwarded-for":
                hops = [hop.strip() for hop in value.decode("latin-1").split(",") if hop.strip()]
                if len(hops) >= count:
                    return hops[-count][:64]
    client = scope.get("client")
    return str(client[0])[:64] if client else ""


def scope_language(scope):
    """The user's language from the language cookie, else Accept-Language, else the default."""
    supported = {code for code, _name in settings.LANGUAGES}
    cookie = (scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME)
    if cookie in supported:
        return cookie
    for name, value in scope.get("headers", []):
        if name == b"accept-language":
            for lang, _q in translation.trans_real.parse_accept_lang_header(value.decode("latin-1")):
                try:
                    return translation.get_supported_language_variant(lang)
                except LookupError:
                    continue
    return settings.LANGUAGE_CODE
