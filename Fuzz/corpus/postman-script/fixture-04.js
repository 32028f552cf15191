pm.test('404', function () { pm.response.to.be.notFound; });
pm.test('error text', function () {
    pm.expect(pm.response.text()).to.include('not found');
});