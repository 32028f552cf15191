"""Reads a CI recipe out of docs/ci-sharding.md and prints, as JSON, what CIRecipeTests runs of it.

Usage: ci_recipes.py DOC RECIPE   (RECIPE: github-actions, gitlab-ci or kubernetes)

The recipe is the ```yaml block after the line `<!-- recipe: RECIPE -->`. It is parsed with PyYAML (safe_load) and
checked as the CI system would read it; what the test needs comes out as one JSON object:

  shards        how many shards the recipe runs (the matrix, `parallel:` or `completions`)
  shell         the shell the CI system runs the commands with (bash for GitHub Actions, sh otherwise)
  environment   the variables the shard job sets (API_URL among them)
  shard         the shard job's commands, in order, each one shell script
  merge         the merge job's commands, in order
  folders       folders the platform provides before the commands run (Kubernetes volume mounts)
  collected     globs of files the CI system collects from each shard (GitLab's JUnit reports)
  uploads       (GitHub) artifact names and paths uploaded by the shard job, per shard index placeholder
  downloads     (GitHub) the merge job's download pattern and path

Anything the recipe leaves out or ties up wrongly is an error (exit 1, the reason on stderr).
"""

import fnmatch
import json
import re
import sys

import yaml


def fail(message):
    sys.stderr.write(message + "\n")
    sys.exit(1)


def recipe_text(doc, name):
    text = open(doc, encoding="utf-8").read()
    match = re.search(r"<!-- recipe: " + re.escape(name) + r" -->\n```yaml\n(.*?)\n```", text, re.S)
    if not match:
        fail(f"{doc}: no ```yaml block after <!-- recipe: {name} -->")
    return match.group(1)


def mentions_apitest(script):
    return re.search(r"(^|[\n;&|(]\s*)apitest\s+(run|merge|list|validate)\b", script) is not None


def github(text):
    workflow = yaml.safe_load(text)
    jobs = workflow.get("jobs") or fail("no jobs")
    shard_name = next((n for n, j in jobs.items() if "matrix" in (j.get("strategy") or {})), None) or fail(
        "no job with a matrix"
    )
    shard_job = jobs[shard_name]
    matrix = shard_job["strategy"]["matrix"]
    shards = matrix.get("shard") or fail("the matrix has no `shard`")
    if shards != list(range(1, len(shards) + 1)):
        fail(f"matrix.shard is {shards}, not 1..N")
    if shard_job["strategy"].get("fail-fast", True):
        fail("fail-fast is on: one failing shard would cancel the others")
    merge_name = next((n for n, j in jobs.items() if shard_name in _list(j.get("needs"))), None) or fail(
        f"no job needs {shard_name}"
    )
    merge_job = jobs[merge_name]
    if merge_job.get("if") != "always()":
        fail("the merge job must run also when a shard failed (if: always())")
    uploads = [
        {"name": s["with"]["name"], "path": s["with"]["path"]}
        for s in shard_job["steps"]
        if str(s.get("uses", "")).startswith("actions/upload-artifact")
    ]
    downloads = [
        {"pattern": s["with"].get("pattern", s["with"].get("name")), "path": s["with"].get("path", ".")}
        for s in merge_job["steps"]
        if str(s.get("uses", "")).startswith("actions/download-artifact")
    ]
    if not uploads or not downloads:
        fail("the shard job must upload its report and the merge job download them")
    for upload in uploads:
        if not any(fnmatch.fnmatch(upload["name"].replace("${{ matrix.shard }}", "1"), d["pattern"]) for d in downloads):
            fail(f"artifact {upload['name']} is not downloaded by the merge job")
    for step in shard_job["steps"]:
        if step.get("uses", "").startswith(("actions/upload-artifact", "actions/cache/save")) and step.get("if") != "always()":
            fail(f"step {step.get('name', step['uses'])} must run also when the shard failed")
    restores = [s for s in shard_job["steps"] if str(s.get("uses", "")).startswith("actions/cache/restore")]
    saves = [s for s in merge_job["steps"] if str(s.get("uses", "")).startswith("actions/cache/save")]
    for restore in restores:
        prefix = restore["with"].get("restore-keys", "")
        if not any(save["with"]["key"].startswith(prefix) and save["with"]["path"] == restore["with"]["path"] for save in saves):
            fail("the timings the shards restore are not saved by the merge job")
    return {
        "shards": len(shards),
        "shell": "bash",
        "environment": {k: str(v) for k, v in (shard_job.get("env") or {}).items()},
        "shard": [s["run"] for s in shard_job["steps"] if "run" in s and mentions_apitest(s["run"])],
        "merge": [s["run"] for s in merge_job["steps"] if "run" in s and mentions_apitest(s["run"])],
        "folders": [],
        "collected": [],
        "uploads": uploads,
        "downloads": downloads,
    }


def gitlab(text):
    pipeline = yaml.safe_load(text)
    jobs = {n: j for n, j in pipeline.items() if isinstance(j, dict) and "script" in j}
    shard_name = next((n for n, j in jobs.items() if "parallel" in j), None) or fail("no job with parallel:")
    shard_job = jobs[shard_name]
    shards = shard_job["parallel"]
    if not isinstance(shards, int) or shards < 2:
        fail("parallel: must be a number of copies")
    merge_name = next(
        (n for n, j in jobs.items() if shard_name in [x["job"] if isinstance(x, dict) else x for x in _list(j.get("needs"))]),
        None,
    ) or fail(f"no job needs {shard_name}")
    merge_job = jobs[merge_name]
    stages = pipeline.get("stages") or ["test"]
    if stages.index(merge_job.get("stage", "test")) <= stages.index(shard_job.get("stage", "test")):
        fail("the merge job must come in a later stage")
    if merge_job.get("when") != "always":
        fail("the merge job must run also when a shard failed (when: always)")
    artifacts = shard_job.get("artifacts") or {}
    if artifacts.get("when") != "always":
        fail("the shards' artifacts must be kept also when a shard failed (artifacts: when: always)")
    junit = _list((artifacts.get("reports") or {}).get("junit"))
    return {
        "shards": shards,
        "shell": "sh",
        "environment": {k: str(v) for k, v in (shard_job.get("variables") or {}).items()},
        "shard": [line for line in shard_job["script"]],
        "merge": [line for line in merge_job["script"]],
        "folders": [],
        "collected": junit,
        "uploads": [{"name": "", "path": p} for p in _list(artifacts.get("paths"))],
        "downloads": [],
    }


def kubernetes(text):
    documents = [d for d in yaml.safe_load_all(text) if d]
    jobs = [d for d in documents if d.get("kind") == "Job"]
    indexed = next((j for j in jobs if j["spec"].get("completionMode") == "Indexed"), None) or fail("no Indexed Job")
    merge = next((j for j in jobs if j is not indexed), None) or fail("no merge Job")
    shards = indexed["spec"]["completions"]

    def container(job):
        containers = job["spec"]["template"]["spec"]["containers"]
        if len(containers) != 1:
            fail("one container per Job")
        return containers[0]

    def commands(job):
        c = container(job)
        if c.get("command") != ["sh", "-c"] or len(c.get("args", [])) != 1:
            fail("the container runs command [sh, -c] with one script in args")
        return c["args"]

    def mounts(job):
        c = container(job)
        working = c.get("workingDir", "/")
        folders = []
        for mount in c.get("volumeMounts", []):
            path = mount["mountPath"]
            if not path.startswith(working.rstrip("/") + "/"):
                fail(f"mount {path} is outside the working folder {working}")
            folders.append(path[len(working.rstrip("/")) + 1 :])
        return folders

    if sorted(mounts(indexed)) != sorted(mounts(merge)):
        fail("the shards and the merge Job mount different folders")
    return {
        "shards": shards,
        "shell": "sh",
        "environment": {e["name"]: str(e["value"]) for e in container(indexed).get("env", [])},
        "shard": commands(indexed),
        "merge": commands(merge),
        "folders": mounts(indexed),
        "collected": [],
        "uploads": [],
        "downloads": [],
    }


def _list(value):
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def main():
    doc, name = sys.argv[1], sys.argv[2]
    text = recipe_text(doc, name)
    plan = {"github-actions": github, "gitlab-ci": gitlab, "kubernetes": kubernetes}[name](text)
    if not plan["shard"] or not plan["merge"]:
        fail("the recipe runs no apitest command in its shard job or its merge job")
    print(json.dumps(plan))


if __name__ == "__main__":
    main()
