"""Each participating casino's role, authority and responsibilities under the bad beat system agreement
(N.J.A.C. 13:69F-14.20(c)): recorded by administrators with the agreement's other terms, kept in the audit trail,
and shown for each casino on the host's report."""
import html
import re

import pytest
from django.apps import apps

from apps.core.roles import Role
from apps.multicasino.models import BadBeatSystem, Site
from tests.multicasino.test_suspension import at_site  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db
SiteEvent = apps.get_model("multicasino", "SiteEvent")

ROLES = {
    "boardwalk": ("Host: keeps the pool and the records of the system",
                  "Verifies claims received from every casino and authorises each payout",
                  "Keeps the official pool and the reset reserve\nSends the notices of every claim and payout"),
    "borgata": ("Participating casino: contributes and pays on verified claims",
                "Approves or withholds approval of every rule change",
                "Collects contributions at its tables and pays its winning patrons after the host authorises it"),
}


def agreement_page(client, system):
    response = client.get(f"/admin/multicasino/badbeatsystem/{system.pk}/change/")
    assert response.status_code == 200
    return response


def change_data(response, roles: dict[str, tuple[str, str, str]]) -> dict:
    """The POST of the agreement's admin page as shown, with each casino's role, authority and responsibilities
    replaced by `roles` (by site code)."""
    form = response.context["adminform"].form
    data: dict = {}
    for name, field in form.fields.items():
        value = form[name].value()
        if field.widget.__class__.__name__ == "CheckboxInput":
            if value:
                data[name] = "on"
        elif field.__class__.__name__ == "SplitDateTimeField":
            data[f"{name}_0"] = data[f"{name}_1"] = ""
        else:
            data[name] = "" if value is None else str(value)
    (inline,) = response.context["inline_admin_formsets"]
    formset = inline.formset
    data.update({f"{formset.prefix}-{k}": v for k, v in formset.management_form.initial.items()})
    for i, site_form in enumerate(formset.forms):
        site = site_form.instance
        role, authority, responsibilities = roles.get(site.code, (site.role, site.authority, site.responsibilities))
        data.update({f"{formset.prefix}-{i}-id": site.pk, f"{formset.prefix}-{i}-system": site.system_id,
                     f"{formset.prefix}-{i}-role": role, f"{formset.prefix}-{i}-authority": authority,
                     f"{formset.prefix}-{i}-responsibilities": responsibilities})
    return data


def staff_user(staff, role):
    user = staff(role)
    user.is_staff = True  # even with access to the admin site
    user.save()
    return user


def report_rows(client, system) -> dict[str, str]:
    """The host's report's 14.20(c) table: each casino's row as text, by site code."""
    page = client.get(f"/multicasino/{system.code}/report/").content.decode()
    return {code: html.unescape(row) for code, row in
            re.findall(r'<tr data-site="([^"]+)">(.*?)</tr>', page, flags=re.S)}


def stored(system):
    return {s.code: (s.role, s.authority, s.responsibilities) for s in Site.objects.filter(system=system)}


@pytest.mark.proves("14.20(c)-roles")
def test_14_20_c_an_administrator_records_each_casinos_role_authority_and_responsibilities(
        at_site, client, staff):  # noqa: F811
    """14.20(c): the agreement identifies and describes each participating casino's role, authority and
    responsibilities: an administrator records them for each casino with the agreement's other terms, they are
    stored, kept in the audit trail, and shown for each casino on the host's report; until then each is shown as
    not recorded."""
    system, me, host, _ = at_site
    rules_hash = system.rules_hash
    client.force_login(staff(Role.ACCOUNTING))
    rows = report_rows(client, system)
    assert set(rows) == {"boardwalk", "borgata"}
    assert all(row.count("Not recorded") == 3 for row in rows.values())  # missing, shown clearly, not refused

    client.force_login(staff_user(staff, Role.ADMIN))
    response = client.post(f"/admin/multicasino/badbeatsystem/{system.pk}/change/",
                           change_data(agreement_page(client, system), ROLES))
    assert response.status_code == 302, response.context and response.context["errors"]
    assert stored(system) == ROLES
    assert BadBeatSystem.objects.get(pk=system.pk).rules_hash == rules_hash  # the other terms are as they were
    for site in (me, host):
        event = SiteEvent.objects.filter(pgh_obj=site).latest("pgh_id")
        assert (event.role, event.authority, event.responsibilities) == ROLES[site.code]

    client.force_login(staff(Role.ACCOUNTING))
    rows = report_rows(client, system)
    for code, (role, authority, responsibilities) in ROLES.items():
        row = rows[code]
        assert role in row and authority in row and "Not recorded" not in row
        for line in responsibilities.split("\n"):
            assert line in row
        other = ROLES["borgata" if code == "boardwalk" else "boardwalk"]
        assert other[0] not in row  # each casino's own description, in its own row
    assert "(host)" in rows["boardwalk"] and "(host)" not in rows["borgata"]
    page = client.get(f"/multicasino/{system.code}/report/").content.decode()
    assert 'data-testid="roles-missing"' not in page


@pytest.mark.proves("14.20(c)-roles")
@pytest.mark.parametrize("role", [Role.POKER_SHIFT_SUPERVISOR, Role.SURVEILLANCE, Role.ACCOUNTING])
def test_14_20_c_only_administrators_change_a_casinos_role(at_site, client, staff, role):  # noqa: F811
    """Only administrators (multicasino.configure_system) record or change the casinos' roles: any other role, even
    with access to the admin site, is refused (403) and nothing changes."""
    system, me, host, _ = at_site
    client.force_login(staff_user(staff, Role.ADMIN))
    data = change_data(agreement_page(client, system), ROLES)
    client.force_login(staff_user(staff, role))
    assert client.get(f"/admin/multicasino/badbeatsystem/{system.pk}/change/").status_code == 403
    assert client.post(f"/admin/multicasino/badbeatsystem/{system.pk}/change/", data).status_code == 403
    assert client.post(f"/admin/multicasino/site/{me.pk}/change/",
                       {"system": system.pk, "code": me.code, "name": me.name, "is_self": "on",
                        "role": "Host"}).status_code == 403
    assert stored(system) == {"boardwalk": ("", "", ""), "borgata": ("", "", "")}


@pytest.mark.proves("14.20(c)-roles")
@pytest.mark.parametrize("field,limit", [("role", 200), ("authority", 2000), ("responsibilities", 2000)])
def test_14_20_c_a_description_too_long_is_an_error_on_its_field_and_writes_nothing(
        at_site, client, staff, field, limit):  # noqa: F811
    system, me, host, _ = at_site
    client.force_login(staff_user(staff, Role.ADMIN))
    too_long = dict(ROLES)
    terms = dict(zip(("role", "authority", "responsibilities"), ROLES["borgata"], strict=True))
    too_long["borgata"] = tuple({**terms, field: "x" * (limit + 1)}.values())
    response = client.post(f"/admin/multicasino/badbeatsystem/{system.pk}/change/",
                           change_data(agreement_page(client, system), too_long))
    assert response.status_code == 200
    (inline,) = response.context["inline_admin_formsets"]
    errors = {form.instance.code: form.errors for form in inline.formset.forms}
    assert list(errors["borgata"]) == [field] and "at most" in errors["borgata"][field][0]
    assert not errors["boardwalk"]
    assert stored(system) == {"boardwalk": ("", "", ""), "borgata": ("", "", "")}  # not even the host's
    exactly = dict(ROLES)
    exactly["borgata"] = tuple({**terms, field: "x" * limit}.values())
    response = client.post(f"/admin/multicasino/badbeatsystem/{system.pk}/change/",
                           change_data(agreement_page(client, system), exactly))
    assert response.status_code == 302
    assert stored(system) == exactly


@pytest.mark.proves("14.20(c)-roles")
def test_14_20_c_the_agreements_page_neither_adds_nor_removes_a_casino(at_site, client, staff):  # noqa: F811
    """The roles are described for the casinos the system has: the agreement's page offers no blank casino and no
    deletion, and a form posted for a new casino, or asking to delete one, changes no casino (casinos are added on
    their own page)."""
    system, me, host, _ = at_site
    client.force_login(staff_user(staff, Role.ADMIN))
    page = agreement_page(client, system)
    (inline,) = page.context["inline_admin_formsets"]
    assert len(inline.formset.forms) == 2 and not inline.formset.extra_forms
    assert not inline.formset.can_delete and not inline.has_add_permission
    data = change_data(page, ROLES)
    prefix = inline.formset.prefix
    data[f"{prefix}-0-DELETE"] = "on"
    data[f"{prefix}-TOTAL_FORMS"] = "3"
    data.update({f"{prefix}-2-system": system.pk, f"{prefix}-2-role": "A casino added here",
                 f"{prefix}-2-authority": "", f"{prefix}-2-responsibilities": ""})
    client.post(f"/admin/multicasino/badbeatsystem/{system.pk}/change/", data)
    assert sorted(Site.objects.filter(system=system).values_list("code", flat=True)) == ["boardwalk", "borgata"]
    assert not Site.objects.filter(role="A casino added here").exists()
    superuser = staff_user(staff, Role.ADMIN)
    superuser.is_superuser = True  # who holds every permission, deleting casinos included
    superuser.save()
    client.force_login(superuser)
    (inline,) = agreement_page(client, system).context["inline_admin_formsets"]
    assert not inline.formset.can_delete and not inline.has_add_permission
