pm.test('graphql', function () {
    pm.expect(pm.response.json().json.query).to.include('user(id: 1)');
    pm.expect(pm.response.json().json.variables.id).to.eql(1);
});