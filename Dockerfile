# The one image of the stack: web (gunicorn), worker and beat run it with different commands.
FROM python:3.13-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 GENIUS_VAR_DIR=/var/genius
WORKDIR /app
COPY requirements.lock .
RUN pip install --no-cache-dir --require-hashes -r requirements.lock
COPY . .
# collectstatic needs a key and a host name; a random key, thrown away with the build step (no key is baked
# into the image), and a name nobody can reach.
RUN GENIUS_PRODUCTION=1 DJANGO_ALLOWED_HOSTS=build.invalid DJANGO_SECRET_KEY="$(python -c 'import secrets; print(secrets.token_urlsafe(50))')" \
    python manage.py collectstatic --no-input --verbosity 0
USER nobody
EXPOSE 8000
CMD ["gunicorn", "genius.wsgi", "--config", "gunicorn.conf.py", "--bind", "0.0.0.0:8000"]
