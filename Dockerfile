FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
# Pango and fonts: weasyprint renders the Master Game Report and the contribution forms as PDF.
RUN apt-get update && apt-get install -y --no-install-recommends curl libpango-1.0-0 libpangoft2-1.0-0 \
      libharfbuzz-subset0 fonts-dejavu-core && rm -rf /var/lib/apt/lists/*
COPY pyproject.toml README.md ./
COPY pokerroom ./pokerroom
COPY apps ./apps
RUN pip install --no-cache-dir .
COPY . .
# The project's modules compiled at build (PYTHONDONTWRITEBYTECODE: no process writes them at run time), as pip
# compiled the libraries': a command or a worker starts without compiling them.
RUN python -m compileall -q pokerroom apps manage.py \
 && DJANGO_SECRET_KEY=build-only python manage.py collectstatic --noinput
RUN useradd --create-home pokerroom
USER pokerroom
EXPOSE 8000
CMD ["gunicorn", "pokerroom.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3"]
