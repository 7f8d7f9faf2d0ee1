"""How every form of the site is printed (settings.FORM_RENDERER).

`{{ form }}` renders templates/forms/form.html: a summary of the form's errors at the top (includes/form_errors.html:
each error linked to its field, named by the field's label; errors that belong to no field), then each field as
templates/forms/field.html prints it — its label, the input, its help text and its errors beside it. Django marks an
input with errors aria-invalid="true" and points its aria-describedby at its help text and its errors (the error list
has the id `<input id>_error`). A page that lays its fields out itself prints the summary with
`{% include "includes/form_errors.html" %}` and each field with `{{ field.as_field_group }}`.

The templates are loaded as the site's other templates are (TemplatesSetting), so ours come first and Django's own
widget templates come from "django.forms" in INSTALLED_APPS.
"""
from django.forms.renderers import TemplatesSetting


class FormRenderer(TemplatesSetting):
    form_template_name = "forms/form.html"
    field_template_name = "forms/field.html"
